"""protocol package (see DESIGN.md)."""
