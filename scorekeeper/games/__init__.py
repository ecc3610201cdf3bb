"""The table core every family stands on: the game row and its seats, the family registry,
rights, links and QR codes, entry writes, corrections and undo, import and export. It imports
no family; each family registers itself (registry.py), and its blueprint gets the pages every
game has from routes.py. Its pages are served through :mod:`scorekeeper.serving`."""
