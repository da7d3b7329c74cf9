"""REST API: webhook subscriptions of the course and their deliveries (replayable)."""


from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level
from api.base import ApiView
from api.errors import ApiError
from api.fields import BodySerializer
from events.catalog import event_types
from events.delivery import webhook_delivery_replay
from events.models import WebhookDelivery, WebhookSubscription
from events.webhooks import (
    WebhookUrlInvalid,
    webhook_delivery_list,
    webhook_list,
    webhook_subscribe,
    webhook_unsubscribe,
)


class WebhookOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()


class WebhookListApi(ApiView):
    class InputSerializer(BodySerializer):
        url = serializers.URLField(max_length=500)
        # The apps have registered their event names by the time the URLconf imports this.
        events = serializers.ListField(child=serializers.ChoiceField(choices=list(event_types())),
                                       min_length=1)

    class CreatedSerializer(WebhookOutput):
        secret = serializers.CharField(help_text="HMAC-SHA256 key of the signatures; shown once")

    @extend_schema(responses=WebhookOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """The course's webhook subscriptions."""
        access = self.access(course_slug, Level.MANAGER)
        return self.paginated(request, webhook_list(course=access.course), WebhookOutput)

    @extend_schema(request=InputSerializer, responses={201: CreatedSerializer})
    def post(self, request: Request, course_slug: str) -> Response:
        """Subscribe a URL to events; the signing secret is in this response only."""
        access = self.access(course_slug, Level.MANAGER)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            subscription = webhook_subscribe(course=access.course, **serializer.validated_data)
        except WebhookUrlInvalid as exc:
            raise ApiError(400, "invalid", str(exc), {"url": [str(exc)]}) from exc
        data = dict(WebhookOutput(subscription).data)
        data["secret"] = subscription.secret
        return Response(data, status=status.HTTP_201_CREATED)


class WebhookDetailApi(ApiView):
    def _subscription(self, course_slug: str, webhook_id: int) -> WebhookSubscription:
        access = self.access(course_slug, Level.MANAGER)
        subscription = webhook_list(course=access.course).filter(pk=webhook_id).first()
        if subscription is None:
            raise ApiError(404, "not_found", "No such webhook.")
        return subscription

    @extend_schema(responses=WebhookOutput)
    def get(self, request: Request, course_slug: str, webhook_id: int) -> Response:
        """One subscription."""
        return Response(WebhookOutput(self._subscription(course_slug, webhook_id)).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, course_slug: str, webhook_id: int) -> Response:
        """Unsubscribe; pending deliveries give up, the history stays."""
        webhook_unsubscribe(subscription=self._subscription(course_slug, webhook_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryOutput(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    webhook_id = serializers.IntegerField(read_only=True, source="subscription_id")
    url = serializers.CharField(source="subscription.url")
    event = serializers.CharField()
    event_id = serializers.UUIDField()
    status = serializers.CharField()
    attempts = serializers.IntegerField(read_only=True)
    next_attempt_at = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    last_status_code = serializers.IntegerField(read_only=True, allow_null=True)
    last_error = serializers.CharField(allow_blank=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    payload = serializers.DictField()


class WebhookDeliveryListApi(ApiView):
    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices, required=False)

    @extend_schema(parameters=[FilterSerializer],
                   responses=DeliveryOutput(many=True))
    def get(self, request: Request, course_slug: str) -> Response:
        """Webhook deliveries, newest first; `?status=failed` lists the ones that gave up."""
        access = self.access(course_slug, Level.MANAGER)
        filters = self.query(self.FilterSerializer)
        rows = webhook_delivery_list(course=access.course, status=filters.get("status"))
        return self.paginated(request, rows, DeliveryOutput)


class WebhookDeliveryReplayApi(ApiView):
    @extend_schema(request=None, responses={202: DeliveryOutput})
    def post(self, request: Request, course_slug: str, delivery_id: int) -> Response:
        """Send a delivery again (typically a failed one); the event id is kept."""
        access = self.access(course_slug, Level.MANAGER)
        delivery = webhook_delivery_list(course=access.course).filter(pk=delivery_id).first()
        if delivery is None:
            raise ApiError(404, "not_found", "No such delivery.")
        return Response(DeliveryOutput(webhook_delivery_replay(delivery=delivery)).data,
                        status=status.HTTP_202_ACCEPTED)
