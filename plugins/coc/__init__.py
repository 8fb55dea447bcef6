"""Built-in xsys system plugin (being written)."""
