"""Sign-up, login and token management for API clients. Each sign-in returns a new token: send it
as `Authorization: Token <key>`. Tokens expire (`expires_at`); refresh one before then.

A mobile client starts with POST auth/guest/ (no body, no account) and keeps the token it gets;
POST auth/upgrade/ later gives that same account a name and a password.
"""

import secrets

from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.validators import UniqueValidator
from rest_framework.views import APIView

from accounts import names, services, tokens
from accounts.authentication import TokenAuthentication
from accounts.models import User
from accounts.throttling import (
    GuestAddressThrottle,
    GuestBrowserThrottle,
    SignInThrottle,
    browser_cookie,
)
from games.api.errors import ErrorSerializer
from games.errors import Conflict

GUEST_PREFIX = "guest-"
TAKEN = "A user with that username already exists."
LOOKS_TAKEN = "Another account has this name, or one that looks like it."
NAME_HELP = (f"what other players read: {names.MIN_LENGTH} to {names.MAX_LENGTH} letters, "
             "digits, spaces and - _ . ' ·; unique, case and look-alike characters aside")


class UserSerializer(serializers.ModelSerializer):
    # Declared: the model's validator would put Python's \w in the schema, which JSON Schema
    # reads as ASCII only, while names may be in any script.
    username = serializers.CharField(read_only=True, help_text="letters of any script, digits "
                                     "and @ . + - _; guests' start with guest-")
    display_name = serializers.CharField(read_only=True, help_text=f"{NAME_HELP}; empty: none")
    name = serializers.CharField(read_only=True, help_text="what others read: the display name, "
                                 "else the username")

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "name", "is_guest"]


class NameSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=200, trim_whitespace=False,
                                         help_text=NAME_HELP)


class GuestSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=200, trim_whitespace=False, required=False,
                                         help_text=f"{NAME_HELP}; left out: the guest is "
                                         "shown by its username until it sets one")


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Token <token>`; it is "
                                  "shown once and cannot be read again")
    expires_at = serializers.DateTimeField(help_text="refresh it before then (auth/refresh/)")
    user = UserSerializer()


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class LogoutSerializer(serializers.Serializer):
    everywhere = serializers.BooleanField(
        default=False, help_text="revoke every token of the account, not only this one")


def password_min_length() -> int:
    """The shortest password AUTH_PASSWORD_VALIDATORS let through, for the schema to say."""
    return max((v.min_length for v in password_validation.get_default_password_validators()
                if isinstance(v, password_validation.MinimumLengthValidator)), default=1)


class RegisterSerializer(serializers.ModelSerializer):
    # Declared without the model's validator as a pattern: Python's \w (the server's) is a
    # letter of any script, JSON Schema's (ECMAScript's) an ASCII one; it is checked below.
    username = serializers.CharField(
        max_length=User._meta.get_field("username").max_length,
        validators=[UniqueValidator(User.objects.all(), message=TAKEN)],
        help_text=f"letters of any script, digits and @ . + - _; not starting with {GUEST_PREFIX}")

    class Meta:
        model = User
        fields = ["username", "password"]
        extra_kwargs = {"password": {"write_only": True, "trim_whitespace": False,
                                     "min_length": password_min_length()}}

    def validate_username(self, value: str) -> str:
        try:
            UnicodeUsernameValidator()(value)
        except DjangoValidationError as err:
            raise serializers.ValidationError(err.messages) from err
        if value.lower().startswith(GUEST_PREFIX):
            raise serializers.ValidationError(f"Names starting with {GUEST_PREFIX} are for guests.")
        if names.reserved(value):
            raise serializers.ValidationError("That name is kept for the service, its staff and "
                                              "its bots.")
        if not services.name_free(value, self.context.get("account")):
            raise serializers.ValidationError(LOOKS_TAKEN)
        return value

    def validate(self, attrs: dict) -> dict:
        try:
            password_validation.validate_password(attrs["password"], User(**attrs))
        except DjangoValidationError as err:
            raise serializers.ValidationError({"password": err.messages}) from err
        return attrs

    def create(self, validated_data: dict) -> User:
        try:
            # The unique check above can lose a race with a concurrent sign-up.
            with transaction.atomic():
                return User.objects.create_user(**validated_data)
        except IntegrityError as err:
            raise serializers.ValidationError({"username": [TAKEN]}) from err


def token_response(user: User, issued: tokens.Issued, status_code: int) -> Response:
    return Response({"token": issued.key, "expires_at": issued.token.expires_at,
                     "user": UserSerializer(user).data}, status=status_code)


THROTTLED = {429: ErrorSerializer}
UNAUTHENTICATED = {401: ErrorSerializer}


class SignInView(APIView):
    """Base of the endpoints that hand out tokens for credentials: open to anyone, throttled
    per client, and deaf to any token sent along (a client with a stale one must be able to start
    over)."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [SignInThrottle]

    def get_authenticate_header(self, request) -> str:
        # Keeps failed logins at 401 (DRF answers 403 when a view has no authenticator).
        return "Token"


class TokenView(APIView):
    """Base of the endpoints that act on the token sent: only a token will do (not a session)."""

    authentication_classes = [TokenAuthentication]


class GuestView(SignInView):
    """Create a guest account (no body needed; a display name if you like) and return its
    token: how a new client starts. Throttled per address and per browser (a cookie it sets)."""

    throttle_classes = [GuestAddressThrottle, GuestBrowserThrottle]

    @extend_schema(request=GuestSerializer, responses={
        201: TokenSerializer, 400: ErrorSerializer, 409: ErrorSerializer, **THROTTLED})
    def post(self, request):
        body = GuestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        raw = body.validated_data.get("display_name")
        name = "" if raw is None else names.display_name(raw)
        if name and not services.name_free(name):
            raise names.NameTaken()
        try:
            with transaction.atomic():
                user = User.objects.create_user(f"{GUEST_PREFIX}{secrets.token_hex(6)}",
                                                is_guest=True, display_name=name)
                issued = tokens.issue(user)
        except IntegrityError as err:  # the name was taken meanwhile
            raise names.NameTaken() from err
        response = token_response(user, issued, status.HTTP_201_CREATED)
        browser_cookie(request, response)
        return response


class RegisterView(SignInView):
    """Create an account with a username and password and return its token."""

    throttle_scope = "signup"

    @extend_schema(
        request=RegisterSerializer,
        responses={201: TokenSerializer, 400: ErrorSerializer, **THROTTLED},
    )
    def post(self, request):
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        with transaction.atomic():
            user = serializer.save()
            issued = tokens.issue(user)
        return token_response(user, issued, status.HTTP_201_CREATED)


class LoginView(SignInView):
    """Exchange a username and password for a new token (one per signed-in client: the
    account's other tokens keep working)."""

    throttle_scope = "login"

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenSerializer, 400: ErrorSerializer, **UNAUTHENTICATED, **THROTTLED},
    )
    def post(self, request):
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request, **serializer.validated_data)
        if user is None:
            raise AuthenticationFailed("Wrong username or password.")
        return token_response(user, tokens.issue(user), status.HTTP_200_OK)


class RefreshView(TokenView):
    """Trade the token sent for a new one with a new expiry; the one sent stops working."""

    @extend_schema(request=None, responses={200: TokenSerializer, **UNAUTHENTICATED})
    def post(self, request):
        issued = tokens.rotate(request.auth)
        if issued is None:
            raise AuthenticationFailed("Invalid token.")
        return token_response(request.user, issued, status.HTTP_200_OK)


class LogoutView(TokenView):
    """Revoke the token sent (or, with `everywhere`, every token of the account)."""

    @extend_schema(request=LogoutSerializer, responses={204: None, 400: ErrorSerializer,
                                                        **UNAUTHENTICATED})
    def post(self, request):
        serializer = LogoutSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        if serializer.validated_data["everywhere"]:
            tokens.revoke_all(request.user)
        else:
            tokens.revoke(request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UpgradeView(TokenView):
    """Give a guest account a username and a password: the same account, the same matches.
    Its other tokens stop working, and the one sent is replaced by the one returned."""

    throttle_classes = [SignInThrottle]
    throttle_scope = "signup"

    @extend_schema(
        request=RegisterSerializer,
        responses={200: TokenSerializer, 400: ErrorSerializer, **UNAUTHENTICATED,
                   409: ErrorSerializer, **THROTTLED},
    )
    def post(self, request):
        serializer = RegisterSerializer(data=request.data, context={"account": request.user})
        serializer.is_valid(raise_exception=True)
        try:
            with transaction.atomic():
                user = User.objects.select_for_update().get(pk=request.user.pk)
                if not user.is_guest:
                    raise Conflict("not_a_guest", "This account is registered already.")
                user.username = serializer.validated_data["username"]
                user.set_password(serializer.validated_data["password"])
                user.is_guest = False
                user.save(update_fields=["username", "password", "is_guest"])
                tokens.revoke_all(user, keep=request.auth)
                issued = tokens.rotate(request.auth)
                if issued is None:  # logged out or refreshed meanwhile
                    raise AuthenticationFailed("Invalid token.")
        except IntegrityError as err:  # the name was taken by a concurrent sign-up
            raise serializers.ValidationError({"username": [TAKEN]}) from err
        return token_response(user, issued, status.HTTP_200_OK)


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="pass it as `?ticket=` to a stream's URL")
    expires_in = serializers.IntegerField(help_text="seconds it stays good for, once")


class StreamTicketView(TokenView):
    """A ticket for one live stream, for clients that cannot send the token header (a browser's
    EventSource): short-lived, single-use, and good only while the token sent is."""

    @extend_schema(request=None, responses={201: StreamTicketSerializer, **UNAUTHENTICATED})
    def post(self, request):
        return Response({"ticket": tokens.ticket_issue(request.auth),
                         "expires_in": tokens.TICKET_SECONDS}, status=status.HTTP_201_CREATED)


class MeView(APIView):
    """The account the request's token belongs to; PATCH sets its display name."""

    @extend_schema(responses={200: UserSerializer, **UNAUTHENTICATED})
    def get(self, request):
        return Response(UserSerializer(request.user).data)

    @extend_schema(request=NameSerializer, responses={
        200: UserSerializer, 400: ErrorSerializer, **UNAUTHENTICATED, 409: ErrorSerializer})
    def patch(self, request):
        body = NameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = services.display_name_set(request.user, body.validated_data["display_name"])
        return Response(UserSerializer(user).data)
