"""Services the core and the packs call: chat model, speech, vision, OCR, audio, charts, prompts, message
catalogues, register import and export. Each loads its heavy library on first use."""
