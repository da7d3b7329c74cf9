"""Events leaving the service: an outbox written with each event, delivered by Celery.

Knows nothing of grading or labs: an app that emits an event names it, builds its payload
and hands it to `events.outbox.event_record` inside the transaction that stores the event.
"""
