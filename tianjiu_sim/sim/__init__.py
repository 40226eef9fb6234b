"""Runners: batches of deals, sessions, duplicate comparison, values, deal-odds sampling."""
