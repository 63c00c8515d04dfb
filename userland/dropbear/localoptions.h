/* dropbear's build options for the TSAR guest (default_options.h holds
 * the rest): logins with a key only; nothing that needs a Unix-domain
 * socket (the guest kernel may have none); no sftp-server in the guest,
 * so OpenSSH's scp must use the scp protocol (scp -O). */
#define DROPBEAR_SVR_PASSWORD_AUTH 0
#define DROPBEAR_CLI_PASSWORD_AUTH 0
#define DROPBEAR_SVR_AGENTFWD 0
#define DROPBEAR_CLI_AGENTFWD 0
#define DROPBEAR_SFTPSERVER 0
