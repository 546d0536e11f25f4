"""Sign-up and login for API clients. Each returns a token: send it as `Authorization: Token <key>`.

A mobile client starts with POST auth/guest/ (no body, no account) and keeps the token it gets.
"""

import secrets

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import User
from games.api.errors import ErrorSerializer

GUEST_PREFIX = "guest-"
TAKEN = "A user with that username already exists."


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "is_guest"]


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    user = UserSerializer()


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class RegisterSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["username", "password"]
        extra_kwargs = {"password": {"write_only": True, "trim_whitespace": False}}

    def validate_username(self, value: str) -> str:
        if value.lower().startswith(GUEST_PREFIX):
            raise serializers.ValidationError(f"Names starting with {GUEST_PREFIX} are for guests.")
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


def token_response(user: User, status_code: int) -> Response:
    token, _ = Token.objects.get_or_create(user=user)
    return Response({"token": token.key, "user": UserSerializer(user).data}, status=status_code)


class SignInView(APIView):
    """Base of the endpoints that hand out tokens: open to anyone, throttled per client, and
    deaf to any token sent along (a client with a stale one must be able to start over)."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]

    def get_authenticate_header(self, request) -> str:
        # Keeps failed logins at 401 (DRF answers 403 when a view has no authenticator).
        return "Token"


class GuestView(SignInView):
    """Create a guest account (no body) and return its token: how a new client starts."""

    throttle_scope = "signup"

    @extend_schema(request=None, responses={201: TokenSerializer, 429: ErrorSerializer})
    def post(self, request):
        user = User.objects.create_user(f"{GUEST_PREFIX}{secrets.token_hex(6)}", is_guest=True)
        return token_response(user, status.HTTP_201_CREATED)


class RegisterView(SignInView):
    """Create an account with a username and password and return its token."""

    throttle_scope = "signup"

    @extend_schema(
        request=RegisterSerializer,
        responses={201: TokenSerializer, 400: ErrorSerializer, 429: ErrorSerializer},
    )
    def post(self, request):
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return token_response(serializer.save(), status.HTTP_201_CREATED)


class LoginView(SignInView):
    """Exchange a username and password for the account's token."""

    throttle_scope = "login"

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenSerializer, 400: ErrorSerializer, 401: ErrorSerializer,
                   429: ErrorSerializer},
    )
    def post(self, request):
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request, **serializer.validated_data)
        if user is None:
            raise AuthenticationFailed("Wrong username or password.")
        return token_response(user, status.HTTP_200_OK)


class MeView(APIView):
    """The account the request's token belongs to."""

    @extend_schema(responses={200: UserSerializer, 401: ErrorSerializer})
    def get(self, request):
        return Response(UserSerializer(request.user).data)
