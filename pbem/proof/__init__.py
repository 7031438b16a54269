"""What happened and who may read it: the log in words, replay, game records, witnesses. Imports the kernel,
the games, pbem.instance and pbem.table."""
