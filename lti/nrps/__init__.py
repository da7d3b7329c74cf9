"""Names and Role Provisioning Services: the course roster read from the LMS."""
