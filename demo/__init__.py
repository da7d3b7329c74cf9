"""A demo course for trying the service (`manage.py seed_demo`): users, answers, lab runs."""
