"""Report pages (``figures``) and their assembly into PDF files (``pdf``)."""
