"""Mail (Inkbox) task templates."""
