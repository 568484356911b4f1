import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { FaDiscord } from 'react-icons/fa6';
import type { Challenge } from '@kickback/common/http/challenges';
import { useSite } from '../../shared/site-context';

/** CLAIM: titled with the challenge; claim by opening a ticket in the community Discord. OK closes. */
export function ClaimModal({ challenge, onClose }: { challenge: Challenge | null; onClose(): void }) {
  const site = useSite();
  const discord = site.socials.find((s) => s.icon === 'discord');
  return (
    <Modal show={challenge !== null} onHide={onClose} centered aria-labelledby="claim-title">
      <Modal.Header closeButton>
        <Modal.Title id="claim-title">{challenge?.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-2">
          To claim this challenge, create a ticket in the {site.streamerName} community{' '}
          {discord ? (
            <a href={discord.url} target="_blank" rel="noreferrer">
              <FaDiscord aria-hidden /> Discord server
            </a>
          ) : (
            'Discord server'
          )}{' '}
          with a screenshot or link of your win.
        </p>
        <p className="text-body-secondary small mb-0">
          Prizes must be claimed within 3 days, and you must be on the code on the site you played.
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onClose}>OK</Button>
      </Modal.Footer>
    </Modal>
  );
}
