"""The HTTP API (/v1, django-ninja) and the MCP server: how hosts outside this Django
project reach personaweb. Top layer: it calls the services of memory, persona and
learning, the same ones the dashboard and the CLI call."""
