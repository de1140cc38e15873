"""A stand-in for paramiko where it cannot be installed: docker-py's test helpers only ask isinstance(sock, paramiko.Channel)."""


class Channel:
    pass
