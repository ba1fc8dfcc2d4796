"""The site over HTTP (Starlette): the application and its routes, the pages of each
feature, forms read strictly, the browser's security headers, the tables' WebSocket and the
drain of a restart. The static files and templates it serves live in ``coinche/web``."""
