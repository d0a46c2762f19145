"""The `smriti` command line (bot/cli/smriti.py) and its shared commands; each pack adds its own from its cli.py."""
