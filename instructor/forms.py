"""Input of the dashboard's forms and filters: parsed and checked here, acted on by services."""

from django import forms


class ReviewForm(forms.Form):
    points = forms.FloatField(min_value=0)
    comment = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))


class OverrideForm(forms.Form):
    part = forms.IntegerField()
    points = forms.FloatField(required=False, min_value=0,
                              help_text="leave empty to remove the override")
    reason = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class DeadlineForm(forms.Form):
    exercise = forms.IntegerField()
    due_at = forms.DateTimeField(required=False, help_text="empty: no deadline",
                                 input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])


class ExtensionForm(forms.Form):
    exercise = forms.IntegerField()
    due_at = forms.DateTimeField(required=False, help_text="empty: withdraw the extension",
                                 input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    reason = forms.CharField(required=False, max_length=2000)
