"""Kits in other languages: the message catalogue, translated spec texts, fonts and line
breaking (docs/languages.md)."""
