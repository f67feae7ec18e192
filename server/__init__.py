"""server package (see DESIGN.md)."""
