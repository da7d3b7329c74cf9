"""Shared plumbing of the REST API: errors, authentication, access, throttles, pagination."""
