"""client package (see DESIGN.md)."""
