"""The trio server: connections, lobby, tables, clocks, store, chips, admin (see README.md)."""
