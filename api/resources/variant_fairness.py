"""REST API: the fairness of the course's variants (first-attempt success per variant, its
interval, the test against the part's other variants and the flag); staff and keys."""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.access import Level
from api.base import ApiView
from grading.fairness_statistics import FALSE_DISCOVERY_RATE, MIN_ANSWERS
from grading.variant_fairness import PartFairness, variant_fairness


class VariantFairnessQuery(serializers.Serializer):
    group = serializers.CharField(required=False, max_length=50,
                                  help_text="only the active students of this group")


class VariantOutput(serializers.Serializer):
    variant = serializers.CharField(help_text="the parameters as shown, 'name = value, ...'")
    params = serializers.DictField(child=serializers.CharField(),
                                   help_text="each parameter's value, or its band 'a to b'")
    answered = serializers.IntegerField(read_only=True, help_text="students who used an attempt")
    first_correct = serializers.IntegerField(read_only=True,
                                             help_text="of them, right at the first attempt")
    rate = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True, help_text="95% Wilson interval, low end")
    high = serializers.FloatField(allow_null=True, help_text="95% Wilson interval, high end")
    others_rate = serializers.FloatField(allow_null=True,
                                         help_text="first-attempt success of the other variants")
    p_value = serializers.FloatField(allow_null=True, help_text=(
        "one-sided exact mid-p of 'harder than the other variants'; null: too few answers"))
    flagged = serializers.BooleanField(help_text="significant after Benjamini-Hochberg over "
                                       "all the course's variants")


class PartFairnessOutput(serializers.Serializer):
    part_id = serializers.IntegerField(read_only=True)
    exercise = serializers.CharField()
    key = serializers.CharField()
    name = serializers.CharField(help_text="how pages name the part: exercise / label")
    variants = VariantOutput(many=True, help_text="lowest first-attempt success first")


class VariantFairnessOutput(serializers.Serializer):
    course = serializers.CharField()
    min_answers = serializers.IntegerField(
        read_only=True, help_text="answers a variant (and its part's other variants) needs to be tested")
    false_discovery_rate = serializers.FloatField()
    parts = PartFairnessOutput(many=True, help_text="the parts whose exercise has parameters")


def _part(part: PartFairness) -> dict[str, Any]:
    return {"part_id": part.column.id, "exercise": part.column.exercise_slug,
            "key": part.column.key, "name": part.column.label,
            "variants": [{"variant": v.key, "params": v.params,
                          "answered": v.test.counts.answered,
                          "first_correct": v.test.counts.first_correct,
                          "rate": v.test.rate, "low": v.test.low, "high": v.test.high,
                          "others_rate": v.test.others_rate, "p_value": v.test.p_value,
                          "flagged": v.test.flagged} for v in part.variants]}


class VariantFairnessApi(ApiView):
    @extend_schema(parameters=[VariantFairnessQuery], responses=VariantFairnessOutput)
    def get(self, request: Request, course_slug: str) -> Response:
        """Per part with parameters, each variant's first-attempt success with its interval
        and whether it is flagged harder than the part's other variants (staff and keys)."""
        access = self.access(course_slug, Level.STAFF)
        filters = self.query(VariantFairnessQuery)
        parts = variant_fairness(course=access.course, group=filters.get("group") or "")
        data = {"course": access.course.slug, "min_answers": MIN_ANSWERS,
                "false_discovery_rate": FALSE_DISCOVERY_RATE,
                "parts": [_part(p) for p in parts]}
        return Response(VariantFairnessOutput(data).data)
