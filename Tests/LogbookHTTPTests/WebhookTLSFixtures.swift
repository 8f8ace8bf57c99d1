import NIOSSL

/// A certificate authority of the tests' own and a certificate it issued to `receiver.test` (a name
/// only, no address; EC P-256, valid until 2126), for a webhook receiver over TLS: the dispatcher
/// trusts the authority alone, so a delivery proves the certificate was checked against the URL's
/// host name while the connection went to the address the test's resolver gave.
enum WebhookTLSFixtures {
    static let authority = """
-----BEGIN CERTIFICATE-----
MIIBuDCCAV+gAwIBAgIUQPdqZwj2w2iCaVzoFaihpp0+RocwCgYIKoZIzj0EAwIw
KTEnMCUGA1UEAwweTG9nYm9vayB0ZXN0IHdlYmhvb2sgYXV0aG9yaXR5MCAXDTI2
MTEyODEzNDYzOVoYDzIxMjYxMTA0MTM0NjM5WjApMScwJQYDVQQDDB5Mb2dib29r
IHRlc3Qgd2ViaG9vayBhdXRob3JpdHkwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
AATKZB/3sPWIKVHkkrt5Eorw3BFj9SwopfPx1YVEMDKX1DF2GCjers5kI+6sAV9A
6xIG1a0wS8/KdJvciCgE2JQro2MwYTAdBgNVHQ4EFgQUYMT2c7gPL/s1i/rgRviH
O+5bzjIwHwYDVR0jBBgwFoAUYMT2c7gPL/s1i/rgRviHO+5bzjIwDwYDVR0TAQH/
BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDRwAwRAIgeufEVoPW
42+lBDz0ld2ovw5djTGC0qy4wm7g9jjMbJYCIEGjdurWM5EIBzyEpLrZgCbQ5qK3
cG0EzyDha6gaAHkn
-----END CERTIFICATE-----
"""
    static let receiverCertificate = """
-----BEGIN CERTIFICATE-----
MIIB0zCCAXmgAwIBAgIUfQGrauxltK8SffCP7ON3g8wnBJ4wCgYIKoZIzj0EAwIw
KTEnMCUGA1UEAwweTG9nYm9vayB0ZXN0IHdlYmhvb2sgYXV0aG9yaXR5MCAXDTI2
MTEyODEzNDY0MFoYDzIxMjYxMTA0MTM0NjQwWjAYMRYwFAYDVQQDDA1yZWNlaXZl
ci50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEjvKVfkmXygJ0HPDYTqNL
oE9fsTVSVqFwX6fFTCY9X91mmIRJ9QxOOXrbEmgpSEJklirwgF8RbQwdXfMC42Ik
SqOBjTCBijAJBgNVHRMEAjAAMA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggr
BgEFBQcDATAYBgNVHREEETAPgg1yZWNlaXZlci50ZXN0MB0GA1UdDgQWBBRIHzmx
bq89Q1r8NoXIZK4KgZbbJjAfBgNVHSMEGDAWgBRgxPZzuA8v+zWL+uBG+Ic77lvO
MjAKBggqhkjOPQQDAgNIADBFAiA+F2m5SEFQ+zgh+PXTsqrD9wKcBC6vSGfeOTm1
qD5O1QIhAN2pAeY07K8CGzVgbZdxu+5vb7s/VMaouqcU3jAM+Dgd
-----END CERTIFICATE-----
"""
    static let receiverKey = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgZPsj3qI7xbjRrYVs
TCYQU7QHiP2MpxOaJtxC4AQgWNehRANCAASO8pV+SZfKAnQc8NhOo0ugT1+xNVJW
oXBfp8VMJj1f3WaYhEn1DE45etsSaClIQmSWKvCAXxFtDB1d8wLjYiRK
-----END PRIVATE KEY-----
"""

    /// A client configuration trusting only the tests' authority (full verification, host names checked).
    static func clientConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(authority.utf8), format: .pem)])
        return configuration
    }

    /// The receiver's server configuration: its certificate for `receiver.test` and key.
    static func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(receiverCertificate.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(receiverKey.utf8), format: .pem)))
    }
}
