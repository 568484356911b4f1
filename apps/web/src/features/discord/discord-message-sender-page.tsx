/**
 * /DiscordMessageSender (admin, docs/product.md#discord-message-sender-admin): the message, the Users
 * multi-select (Discord-linked users only), the three audience switches and Send. A small send
 * answers with its result at once; a larger one runs in the background and shows its progress
 * here until it finished. Either way the end is "Message successfully sent." and the result modal.
 */
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FaDiscord, FaPaperPlane, FaArrowUpRightFromSquare } from 'react-icons/fa6';
import {
  DISCORD_MESSAGE_MAX,
  discordMessageForm,
  isFinished,
  type BroadcastResult,
} from '@kickback/common/http/discord';
import type { UserOption } from '@kickback/common/http/users';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../shared/auth/auth-context';
import { UserMultiSelect } from '../../components/ui/user-select';
import { CharCounter, FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import {
  useDiscordBot,
  useFetchBroadcast,
  usePatchRecent,
  useRecentBroadcasts,
  useRecentChanged,
  useSendDiscordMessage,
} from './api';
import { BroadcastProgress } from './broadcast-progress';
import { BroadcastResultModal } from './broadcast-result-modal';
import { RecentBroadcasts } from './recent-broadcasts';
import { useBroadcastPoll } from './use-broadcast-poll';
import './discord.css';

const empty = {
  message: '',
  userIds: [] as string[],
  isAllDiscordLinkedUsers: false,
  isIncludeClashActiveUsers: false,
  isIncludeClashNonActiveUsers: false,
};

/** A server problem with one picked user (`userIds.3`) shows on the Users field. */
const fieldOf = (path: string) => (path === 'message' ? 'message' : path.startsWith('userIds') ? 'userIds' : null);

/** Switching an audience on settles "pick someone": the users field is checked again. */
const audience = { deps: 'userIds' };

export default function DiscordMessageSenderPage() {
  const myName = useAuth().user?.username ?? null;
  const {
    register,
    handleSubmit,
    control,
    setValue,
    getValues,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(discordMessageForm, { defaultValues: empty });
  const message = useWatch({ control, name: 'message' }) ?? '';
  /** The picked users as the select shows them; the form holds their ids. */
  const [users, setUsers] = useState<UserOption[]>([]);
  const [running, setRunning] = useState<BroadcastResult | null>(null);
  const [result, setResult] = useState<BroadcastResult | null>(null);
  const recent = useRecentBroadcasts();
  const bot = useDiscordBot().data ?? null;
  const send = useSendDiscordMessage();
  const patchRecent = usePatchRecent();
  const recentChanged = useRecentChanged();
  const fetchBroadcast = useFetchBroadcast();

  // Back on the page while one's own broadcast still runs: follow it again (once, on the first list).
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !recent.data) return;
    resumed.current = true;
    const open = recent.data.find((b) => !isFinished(b.status) && b.createdBy === myName);
    if (!open) return;
    fetchBroadcast(open.id)
      .then(setRunning)
      .catch(() => undefined);
  }, [recent.data, myName, fetchBroadcast]);

  /** The end of a send: the contract's toast, the result modal; the form is cleared unless the admin wrote on. */
  const finished = (done: BroadcastResult, sentText: string) => {
    setRunning(null);
    if (done.status === 'completed') {
      toast.success(messages.messageSent);
      if (getValues('message') === sentText) {
        reset(empty);
        setUsers([]);
      }
    } else {
      toast.error(done.error ?? messages.systemError);
    }
    setResult(done);
    recentChanged();
  };

  useBroadcastPoll(running?.id ?? null, (next) => {
    patchRecent(next);
    if (isFinished(next.status)) finished(next, next.message);
    else setRunning(next);
  });

  const submit = handleSubmit(async (body) => {
    try {
      const answer = await send.mutateAsync({ body });
      if (isFinished(answer.status)) finished(answer, body.message);
      else setRunning(answer);
    } catch (err) {
      setServerErrors(err, setError, fieldOf); // the API wrapper showed why; the button works again
    }
  });

  const openResult = async (id: string) => {
    try {
      setResult(await fetchBroadcast(id));
    } catch {
      toast.error(messages.systemError);
    }
  };

  const busy = isSubmitting || running !== null;
  const messageError = errors.message?.message;
  const usersError = errors.userIds?.message;
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1 d-flex align-items-center gap-2">
        <FaDiscord className="kb-discord-icon" aria-hidden="true" /> Send Discord Message
      </h1>
      <p className="text-body-secondary mb-4">
        A direct message from the site&apos;s Discord bot to the users you pick, or to a whole audience. Each Discord
        account gets it once, however it was chosen.
      </p>
      <div className="row g-4">
        <div className="col-lg-7">
          <Form className="kb-card" noValidate onSubmit={(e) => void submit(e)}>
            <Form.Group className="mb-3" controlId="discord-message">
              <Form.Label>Message</Form.Label>
              <Form.Control
                as="textarea"
                rows={6}
                placeholder="Enter message here"
                maxLength={DISCORD_MESSAGE_MAX}
                isInvalid={Boolean(messageError)}
                aria-invalid={Boolean(messageError)}
                aria-describedby="discord-message-error discord-message-count"
                {...register('message')}
              />
              <FieldError id="discord-message-error" message={messageError} />
              <div className="d-flex align-items-baseline gap-2">
                <Form.Text>Plain text or Discord markdown. Mentions such as @everyone are not pinged.</Form.Text>
                <span className="ms-auto">
                  <CharCounter id="discord-message-count" length={message.length} max={DISCORD_MESSAGE_MAX} />
                </span>
              </div>
            </Form.Group>
            <Form.Group className="mb-3">
              <Form.Label htmlFor="discord-users">Users</Form.Label>
              <UserMultiSelect
                inputId="discord-users"
                discordLinkedOnly
                value={users}
                aria-invalid={Boolean(usersError)}
                aria-errormessage="discord-users-error"
                onChange={(v) => {
                  setUsers(v);
                  setValue(
                    'userIds',
                    v.map((u) => u.value),
                    { shouldValidate: true, shouldDirty: true },
                  );
                }}
              />
              <div
                className="invalid-feedback d-block"
                id="discord-users-error"
                role={usersError ? 'alert' : undefined}
              >
                {usersError}
              </div>
              <Form.Text>Only users who linked Discord are listed.</Form.Text>
            </Form.Group>
            <fieldset className="mb-4">
              <legend className="form-label fs-6">Also send to</legend>
              <Form.Check
                type="switch"
                id="discord-all-linked"
                label="All Discord Linked Users"
                {...register('isAllDiscordLinkedUsers', audience)}
              />
              <Form.Check
                type="switch"
                id="discord-clash-active"
                label="Include Clash Active Users"
                {...register('isIncludeClashActiveUsers', audience)}
              />
              <Form.Check
                type="switch"
                id="discord-clash-inactive"
                label="Include Clash Non-Active Users"
                {...register('isIncludeClashNonActiveUsers', audience)}
              />
              <Form.Text>
                Clash users are Discord-linked users with a Clash id; active ones wagered under the code on Clash.gg in
                the last two weeks.
              </Form.Text>
            </fieldset>
            <Button type="submit" disabled={busy} className="d-inline-flex align-items-center gap-2">
              {isSubmitting && !running ? (
                <Spinner animation="border" size="sm" aria-hidden="true" />
              ) : (
                <FaPaperPlane aria-hidden="true" />
              )}{' '}
              Send
            </Button>
          </Form>
          {running && (
            <div className="mt-3">
              <BroadcastProgress broadcast={running} />
            </div>
          )}
        </div>
        <div className="col-lg-5 d-flex flex-column gap-4">
          {bot && (
            <section className="kb-card" aria-labelledby="kb-discord-bot">
              <h2 id="kb-discord-bot" className="h6 mb-2">
                Delivery
              </h2>
              {bot.mode === 'simulator' && (
                <>
                  <p className="small text-body-secondary mb-2">
                    No bot token is configured, so messages go to the local Discord simulator.
                  </p>
                  {bot.inboxUrl && (
                    <a
                      href={bot.inboxUrl}
                      target="_blank"
                      rel="noreferrer"
                      className="d-inline-flex align-items-center gap-2 small"
                    >
                      Open the simulated Discord inbox <FaArrowUpRightFromSquare aria-hidden="true" />
                    </a>
                  )}
                </>
              )}
              {bot.mode === 'discord' && (
                <p className="small text-body-secondary mb-0">
                  Sent by the site&apos;s Discord bot. Users who closed their DMs are skipped until they link again.
                </p>
              )}
              {bot.mode === 'off' && (
                <p className="small kb-failed mb-0">No Discord bot token is configured (DISCORD_BOT_TOKEN).</p>
              )}
            </section>
          )}
          <RecentBroadcasts
            items={recent.isPending ? null : (recent.data ?? [])}
            onOpen={(id) => void openResult(id)}
          />
        </div>
      </div>
      <BroadcastResultModal result={result} onClose={() => setResult(null)} />
    </section>
  );
}
