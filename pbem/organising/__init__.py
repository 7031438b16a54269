"""Organising games: who may create them, the new-game request, and the muster of invited players.
Imports everything below the service facade (pbem.instance, pbem.table, pbem.proof, pbem.post), never the facade."""
