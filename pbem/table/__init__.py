"""A game table's life around the rules: the delivery layer's events, deadlines, undo requests, standing
orders, absences, autopilot, replacement, reliability and talk. Imports the kernel, the games and pbem.instance."""
