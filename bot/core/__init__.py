"""The core: the conversation every transport drives, the pack contract and the card engine, intake, follow-ups,
and the app that assembles them. It imports no pack (tests/core/test_project_rules.py holds it to that)."""
