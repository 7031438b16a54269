"""What goes out and comes in: the mails a command owes, notifications, reminders, the outbox and its claims,
mail and webhooks, replies by mail. Imports the kernel, the games, pbem.instance, pbem.table and pbem.proof."""
