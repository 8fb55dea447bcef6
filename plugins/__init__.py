"""Built-in plugins of xsys, each registered through the ``xsys`` entry-point group
exactly like a third-party plugin."""
