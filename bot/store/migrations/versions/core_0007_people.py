"""Core: people — each person of a tenant, their channels (one sender maps to one person) and territories.

Revision ID: core_0007
Revises: core_0006
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0007"
down_revision = "core_0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "people",
        sa.Column("person_id", sa.String(41), primary_key=True),
        sa.Column("tenant_id", sa.String(41), sa.ForeignKey("tenants.tenant_id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("pack", sa.String(16), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("officer_id", sa.String(41)),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_people_tenant_id", "people", ["tenant_id"])
    op.create_table(
        "person_channels",
        sa.Column("channel", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(41), sa.ForeignKey("people.person_id", ondelete="CASCADE"), nullable=False),
    )
    op.create_index("ix_person_channels_person_id", "person_channels", ["person_id"])
    op.create_table(
        "person_territories",
        sa.Column("person_id", sa.String(41), sa.ForeignKey("people.person_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("village", sa.String(64), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for table in ("person_territories", "person_channels", "people"):
        op.drop_table(table)
