"""The console transport: the zero-network way to talk to the bot."""
