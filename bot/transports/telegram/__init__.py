"""The Telegram transport (python-telegram-bot): updates in, replies and cards out."""
