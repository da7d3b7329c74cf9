"""Signing in without an LMS: the sign-in page (it says how to get a password), the page a
password link opens (choose a password, then signed in), and, where the service has an
e-mail backend (PASSWORD_RESET_BY_EMAIL), a password reset by e-mail. Django's auth views,
in the site's templates; the links are Django's signed, expiring, single-use tokens
(courses.password_links)."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.urls import reverse_lazy

from core.user_cache import USER_BACKEND
from courses.password_links import password_reset_users


class SignInView(auth_views.LoginView):
    """Django's sign-in, telling the page whether a password can be reset by e-mail."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs),
                "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL}


class PasswordSetView(auth_views.PasswordResetConfirmView):
    """A password link (an instructor's, or a reset e-mail's): choose a password and be signed
    in. A used, expired or altered link says so."""

    template_name = "registration/password_set.html"
    post_reset_login = True
    post_reset_login_backend = USER_BACKEND
    success_url = reverse_lazy("home")

    def form_valid(self, form: forms.Form) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, "Your password is set and you are signed in. Sign in "
                                       "with your username and this password from now on.")
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs),
                "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL}


class _ResetForm(PasswordResetForm):
    """Django's reset form, whose e-mail also reaches accounts without a password yet."""

    def get_users(self, email: str) -> Any:
        return iter(password_reset_users(email=email))


def _reset_by_email_only(request: HttpRequest) -> None:
    if not settings.PASSWORD_RESET_BY_EMAIL:
        raise Http404("This service sends no e-mail: ask your course's instructor for a "
                      "password link.")


class PasswordResetRequestView(auth_views.PasswordResetView):
    """Ask for a reset e-mail (only where the service has an e-mail backend). The answer is
    the same whether or not an account has the address."""

    form_class = _ResetForm
    template_name = "registration/password_reset.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        _reset_by_email_only(request)
        return super().dispatch(request, *args, **kwargs)


class PasswordResetSentView(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_sent.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        _reset_by_email_only(request)
        return super().dispatch(request, *args, **kwargs)


