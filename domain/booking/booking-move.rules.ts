/**
 * How often a customer may move a booking (docs/rules/booking.md#moving-a-booking): each move sends
 * the customer a message, so a booking anyone holds the link or phone of cannot be moved without
 * end. The salon's own moves are not counted and have no cap. Pure.
 */
import { errors } from '../errors';

/** A booking's moves by its customer, over its life. */
export const CUSTOMER_MOVES_PER_BOOKING = 3;

/** 422 MOVE_LIMIT_REACHED once the customer has moved the booking CUSTOMER_MOVES_PER_BOOKING times. */
export function assertMoveLeft(movesSoFar: number): void {
  if (movesSoFar >= CUSTOMER_MOVES_PER_BOOKING) {
    throw errors.unprocessable(
      'MOVE_LIMIT_REACHED',
      `A booking can be moved ${CUSTOMER_MOVES_PER_BOOKING} times; it has been moved as often as that, so please call the salon`,
    );
  }
}

/** Whether the customer may still move a booking moved `movesSoFar` times (the manage page offers the move only then). */
export function hasMoveLeft(movesSoFar: number): boolean {
  return movesSoFar < CUSTOMER_MOVES_PER_BOOKING;
}
