"""The REST API (/api/v1/) for LMSs and scripts: an interface over courses, grading and labs.

Views are grouped by resource in api/resources/; who may do what is decided in api/access.py.
"""
