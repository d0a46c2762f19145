"""Importing and exporting a tenant's registers: files people keep (CSV, Excel, the seed JSON) in and out."""

FORMATS = ("csv", "xlsx", "json")
"""The file formats a register is exported to (and imported from, with the seed JSON)."""
