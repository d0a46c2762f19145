"""The office web page: Starlette and Jinja2 templates, served by `smriti web` and beside the webhooks by
`smriti run`, under the path prefix /office.

People sign in with a one-time link from the bot (`/web` in chat, `smriti web link`); a session is a signed,
HttpOnly, SameSite=Strict cookie bound to the person's tenant and role, and every form carries a one-time token.
Each page belongs to a section (people, registers, queue, privacy, memory, and each pack's own); admins see
every section of their tenant, a clerk only the accounts-payable pages. Every action calls the same code as the
command line and the chat, and is audited with the person who did it. Packs add their sections through an
optional `web` module (`section(ctx)`), so the core never imports a pack.
"""
