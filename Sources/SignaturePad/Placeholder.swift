// Placeholder: this module is built out by its own issue.
