"""Mail: rendering (templates/mail), the outbox, transports, dispatch, and inbound replies."""
