"""The ``switchboard`` launcher: the one place that composes server and client."""
