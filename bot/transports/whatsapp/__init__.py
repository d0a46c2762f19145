"""The WhatsApp transport (Twilio): the signed webhook, queued inbound messages, replies through the REST API."""
