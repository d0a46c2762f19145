"""Importing and exporting a tenant's registers: files people keep (CSV, Excel, the seed JSON) in and out."""
