"""Networked play (architecture.md, "Networked play"; docs/protocol.md).

The host side (server, store, hosting) owns the engine and the game store;
the client side (protocol, client, bot, locations) sees only what rules.surface
offers: a seat's view, its events and the legal commands as notation.
"""
