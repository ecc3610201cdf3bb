"""Circles: the people who play together, across every family of games, and the history each
person owns. What a circle keeps is its people and which of its games are in its history; every
figure of that history is derived (:mod:`scorekeeper.rules.history`)."""
