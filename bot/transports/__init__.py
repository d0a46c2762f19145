"""Transports: each turns its channel's traffic into Incoming messages for the core and sends the Replies back
(console, Telegram, WhatsApp), plus what the chat transports share."""
