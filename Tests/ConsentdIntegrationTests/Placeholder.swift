// Placeholder: tests arrive with the module's issue.
