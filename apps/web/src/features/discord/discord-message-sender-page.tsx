/**
 * /DiscordMessageSender (admin, spec part 1 "Discord message sender"): the message, the Users
 * multi-select (Discord-linked users only), the three audience switches and Send. A small send
 * answers with its result at once; a larger one runs in the background and shows its progress
 * here until it finished. Either way the end is "Message successfully sent." and the result modal.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import { FaDiscord, FaPaperPlane, FaArrowUpRightFromSquare } from 'react-icons/fa6';
import {
  DISCORD_MESSAGE_MAX,
  isFinished,
  type BroadcastResult,
  type BroadcastSummary,
  type DiscordBotInfo,
} from '@kickback/common/http/discord';
import type { UserOption } from '@kickback/common/http/users';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../app/auth/auth-context';
import { UserMultiSelect } from '../../components/ui/user-select';
import { getBroadcast, getDiscordBot, getRecentBroadcasts, sendDiscordMessage } from './api';
import { BroadcastProgress } from './broadcast-progress';
import { BroadcastResultModal } from './broadcast-result-modal';
import { RecentBroadcasts } from './recent-broadcasts';
import { useBroadcastPoll } from './use-broadcast-poll';
import './discord.css';

interface Problems {
  message?: string;
  audience?: string;
}

function check(message: string, users: readonly UserOption[], anySwitch: boolean): Problems {
  const problems: Problems = {};
  if (message.trim() === '') problems.message = 'Enter a message.';
  else if (message.length > DISCORD_MESSAGE_MAX)
    problems.message = `A Discord message is at most ${DISCORD_MESSAGE_MAX.toLocaleString('en-US')} characters.`;
  if (users.length === 0 && !anySwitch) problems.audience = 'Pick at least one user, or switch on an audience below.';
  return problems;
}

export default function DiscordMessageSenderPage() {
  const myName = useAuth().user?.username ?? null;
  const [message, setMessage] = useState('');
  const [users, setUsers] = useState<UserOption[]>([]);
  const [allLinked, setAllLinked] = useState(false);
  const [clashActive, setClashActive] = useState(false);
  const [clashInactive, setClashInactive] = useState(false);
  const [problems, setProblems] = useState<Problems>({});
  const [submitting, setSubmitting] = useState(false);
  const [running, setRunning] = useState<BroadcastResult | null>(null);
  const [result, setResult] = useState<BroadcastResult | null>(null);
  const [recent, setRecent] = useState<BroadcastSummary[] | null>(null);
  const [bot, setBot] = useState<DiscordBotInfo | null>(null);

  const loadRecent = useCallback((signal?: AbortSignal) => {
    getRecentBroadcasts(signal)
      .then(setRecent)
      .catch(() => {
        if (!signal?.aborted) setRecent((r) => r ?? []);
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    // Back on the page while one's own broadcast still runs: follow it again.
    getRecentBroadcasts(controller.signal)
      .then(async (list) => {
        setRecent(list);
        const open = list.find((b) => !isFinished(b.status) && b.createdBy === myName);
        if (open) setRunning(await getBroadcast(open.id, controller.signal));
      })
      .catch(() => {
        if (!controller.signal.aborted) setRecent((r) => r ?? []);
      });
    getDiscordBot(controller.signal)
      .then(setBot)
      .catch(() => undefined);
    return () => controller.abort();
  }, [loadRecent, myName]);

  /** The end of a send: the spec's toast, the result modal; the form is cleared unless the admin wrote on. */
  const finished = (done: BroadcastResult, sentText: string) => {
    setRunning(null);
    setSubmitting(false);
    if (done.status === 'completed') {
      toast.success(messages.messageSent);
      if (message === sentText) {
        setMessage('');
        setUsers([]);
      }
    } else {
      toast.error(done.error ?? messages.systemError);
    }
    setResult(done);
    loadRecent();
  };

  useBroadcastPoll(running?.id ?? null, (next) => {
    setRecent((list) => list?.map((b) => (b.id === next.id ? next : b)) ?? list);
    if (isFinished(next.status)) finished(next, next.message);
    else setRunning(next);
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check(message, users, allLinked || clashActive || clashInactive);
    setProblems(found);
    if (found.message || found.audience) return;
    setSubmitting(true);
    try {
      const answer = await sendDiscordMessage({
        message,
        userIds: users.map((u) => u.value),
        isIncludeClashActiveUsers: clashActive,
        isIncludeClashNonActiveUsers: clashInactive,
        isAllDiscordLinkedUsers: allLinked,
      });
      if (isFinished(answer.status)) finished(answer, message);
      else {
        setRunning(answer);
        loadRecent();
      }
    } catch {
      setSubmitting(false); // the API wrapper showed why; the button works again
    }
  };

  const openResult = async (id: string) => {
    try {
      setResult(await getBroadcast(id));
    } catch {
      toast.error(messages.systemError);
    }
  };

  const count = message.length;
  const busy = submitting || running !== null;
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
              <div className="d-flex align-items-baseline">
                <Form.Label>Message</Form.Label>
                <small
                  className={`ms-auto ${count > DISCORD_MESSAGE_MAX ? 'kb-failed' : 'text-body-secondary'}`}
                  aria-live="polite"
                >
                  {count.toLocaleString('en-US')} / {DISCORD_MESSAGE_MAX.toLocaleString('en-US')}
                </small>
              </div>
              <Form.Control
                as="textarea"
                rows={6}
                placeholder="Enter message here"
                value={message}
                isInvalid={Boolean(problems.message)}
                onChange={(e) => {
                  setMessage(e.target.value);
                  if (problems.message) setProblems((p) => ({ ...p, message: undefined }));
                }}
              />
              <Form.Control.Feedback type="invalid">{problems.message}</Form.Control.Feedback>
              <Form.Text>Plain text or Discord markdown. Mentions such as @everyone are not pinged.</Form.Text>
            </Form.Group>
            <Form.Group className="mb-3">
              <Form.Label htmlFor="discord-users">Users</Form.Label>
              <UserMultiSelect
                inputId="discord-users"
                discordLinkedOnly
                value={users}
                onChange={(v) => {
                  setUsers(v);
                  if (problems.audience) setProblems((p) => ({ ...p, audience: undefined }));
                }}
              />
              {problems.audience && (
                <div className="invalid-feedback d-block" role="alert">
                  {problems.audience}
                </div>
              )}
              <Form.Text>Only users who linked Discord are listed.</Form.Text>
            </Form.Group>
            <fieldset className="mb-4">
              <legend className="form-label fs-6">Also send to</legend>
              <Form.Check
                type="switch"
                id="discord-all-linked"
                label="All Discord Linked Users"
                checked={allLinked}
                onChange={(e) => {
                  setAllLinked(e.target.checked);
                  setProblems((p) => ({ ...p, audience: undefined }));
                }}
              />
              <Form.Check
                type="switch"
                id="discord-clash-active"
                label="Include Clash Active Users"
                checked={clashActive}
                onChange={(e) => {
                  setClashActive(e.target.checked);
                  setProblems((p) => ({ ...p, audience: undefined }));
                }}
              />
              <Form.Check
                type="switch"
                id="discord-clash-inactive"
                label="Include Clash Non-Active Users"
                checked={clashInactive}
                onChange={(e) => {
                  setClashInactive(e.target.checked);
                  setProblems((p) => ({ ...p, audience: undefined }));
                }}
              />
              <Form.Text>
                Clash users are Discord-linked users with a Clash id; active ones wagered under the code on Clash.gg in
                the last two weeks.
              </Form.Text>
            </fieldset>
            <Button type="submit" disabled={busy} className="d-inline-flex align-items-center gap-2">
              {submitting && !running ? (
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
          <RecentBroadcasts items={recent} onOpen={(id) => void openResult(id)} />
        </div>
      </div>
      <BroadcastResultModal result={result} onClose={() => setResult(null)} />
    </section>
  );
}
