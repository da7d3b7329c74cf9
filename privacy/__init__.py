"""Data-protection requests and retention: one person's data exported or erased (audited), and
raw answers, lab runs and delivery logs kept only as long as the settings say after a course
ends. An operator tool over the other apps, which register their personal data themselves
(core/personal_data.py)."""
