"""The answer to a deep-linking request: the chosen sections, exercises, labs and assessments
as LTI resource links, exercises and assessments with a line item so the LMS creates their
gradebook columns."""

from django.urls import reverse
from lti_tool.models import LtiLaunch
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from lti.selectors import PickerItem
from lti.services.launch import TARGET_PARAMETER


def deep_link_resources(*, items: list[PickerItem], launch_url: str) -> list[DeepLinkResource]:
    """One ltiResourceLink per item, opening it through the launch URL (custom parameter
    `grader_target` = `kind:uuid`); an exercise gets lineItem {scoreMaximum: its points,
    label: its title, resourceId: its uuid, tag: "grader-exercise"}, an assessment one out of
    100 (its score in percent of the student's paper) with tag "grader-assessment"."""
    resources = []
    for item in items:
        resource = (DeepLinkResource().set_url(launch_url).set_title(item.title)
                    .set_custom_params({TARGET_PARAMETER: item.value}))
        if item.kind == "exercise":
            resource.set_lineitem(LineItem().set_score_maximum(item.points or 0)
                                  .set_label(item.title).set_resource_id(item.uuid)
                                  .set_tag("grader-exercise"))
        elif item.kind == "assessment":
            resource.set_lineitem(LineItem().set_score_maximum(item.points or 0)
                                  .set_label(item.title).set_resource_id(item.uuid)
                                  .set_tag("grader-assessment"))
        resources.append(resource)
    return resources


def deep_link_response_jwt(*, launch: LtiLaunch, items: list[PickerItem], base_url: str) -> str:
    """The signed LtiDeepLinkingResponse JWT (the tool's key) for the chosen items."""
    launch_url = base_url.rstrip("/") + reverse("lti:launch")
    deep_link = launch.get_message_launch().get_deep_link()
    return str(deep_link.get_response_jwt(deep_link_resources(items=items, launch_url=launch_url)))
