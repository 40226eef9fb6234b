"""Output: plots, figures and reports."""
