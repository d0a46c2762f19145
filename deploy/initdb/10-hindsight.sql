-- Hindsight's own database beside the bot's, with pgvector.
CREATE DATABASE hindsight;
\connect hindsight
CREATE EXTENSION IF NOT EXISTS vector;
