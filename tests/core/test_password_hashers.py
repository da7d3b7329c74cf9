"""Passwords are stored with argon2id at OWASP's parameters, and passwords stored earlier under
another hasher still sign in and are stored again with it (the service's settings, not the
tests' fast MD5)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import (
    Argon2PasswordHasher,
    PBKDF2PasswordHasher,
    check_password,
    make_password,
)
from django.test import override_settings

from config.settings import base

service_hashers = override_settings(PASSWORD_HASHERS=base.PASSWORD_HASHERS)


def _sign_in(client, password: str) -> bool:
    """Sign in as ada through the form, as a browser does; True if it let her in."""
    response = client.post("/accounts/login/", {"username": "ada", "password": password})
    client.logout()
    return response.status_code == 302


@service_hashers
def test_a_new_password_is_stored_as_argon2id_with_19_mib_2_passes_and_1_lane():
    stored = make_password("correct horse")

    assert stored.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert check_password("correct horse", stored)
    assert not check_password("correct horsf", stored)


@pytest.mark.django_db
@pytest.mark.parametrize("earlier", [PBKDF2PasswordHasher, Argon2PasswordHasher],
                         ids=["pbkdf2", "argon2-at-djangos-parameters"])
@service_hashers
def test_a_password_stored_earlier_signs_in_and_is_stored_again_as_argon2id(client, earlier):
    user = get_user_model().objects.create(username="ada")
    user.password = earlier().encode("correct horse", earlier().salt())
    user.save(update_fields=["password"])

    assert _sign_in(client, "correct horse")

    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert _sign_in(client, "correct horse")


@pytest.mark.django_db
@service_hashers
def test_a_wrong_password_neither_signs_in_nor_changes_what_is_stored(client):
    user = get_user_model().objects.create(username="ada")
    user.password = PBKDF2PasswordHasher().encode("correct horse", PBKDF2PasswordHasher().salt())
    user.save(update_fields=["password"])
    stored = user.password

    assert not _sign_in(client, "wrong horse")

    user.refresh_from_db()
    assert user.password == stored
