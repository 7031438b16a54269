"""The instance pbem runs as: its settings, which database it uses and copying it, the scheduler's
leader lock, signed links, and the cache of states. Imports the kernel (events) only."""
