"""The terminal front end of sekigahara: the CLI, and (to come) the Textual app."""
